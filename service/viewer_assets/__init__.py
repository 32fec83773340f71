"""The web viewer's page, stylesheet and script: shipped as package data, inlined into one page."""
