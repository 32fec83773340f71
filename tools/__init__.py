"""Tools for the people who keep Kifu: the benchmark, the regression corpus maker, re-recording."""
