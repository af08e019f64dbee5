"""Training the built-in players' data: the table player's bid values, the learned networks."""
