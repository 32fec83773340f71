"""Alteil Tactics Card Battle (アルテイルTCB), seed 003: battlefield cards as life, influence per god."""
