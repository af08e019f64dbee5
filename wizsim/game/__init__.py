"""The game as data: cards and their codes, the rules and their options, recorded rounds."""
