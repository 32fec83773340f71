"""Versions written into every record: the engine's, and the record format's (kept separate)."""
ENGINE_VERSION = "0.1.0"
FORMAT_VERSION = 2          # 2: keyed randomness, underived salts, layout-free checkpoint digests, compact lines
