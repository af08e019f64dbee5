"""Players: named strategies, user bid rules, the rules of thumb, the players' data files."""
