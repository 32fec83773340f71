"""Read side: folds and read models over recorded events (state at seq, views, causes, audit)."""
