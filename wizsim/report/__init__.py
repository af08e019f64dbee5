"""``wizsim report`` (every analysis, results/README.md) and the charts' house style."""
