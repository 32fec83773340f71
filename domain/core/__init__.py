"""The game-agnostic core: envelopes, errors, seeded randomness, the decider contract, the registry."""
