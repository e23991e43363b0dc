"""The web table's server: static files, the OAuth2 code exchange, and one
websocket per viewer (docs/web.md)."""
