"""Reigeki (seed 001): a leader on a 2×3 stage, level by adjacency, 霊力 spells, guards, a 7-card damage zone."""
