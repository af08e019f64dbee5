"""The rules of play as kernels: dealing, the trick, scoring, special-card events."""
