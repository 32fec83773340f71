"""WORLFARD (seed 000, rules v1.6.0): lines of stage/table/tower spots, towers as cost, hearts."""
