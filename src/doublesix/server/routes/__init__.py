"""The HTTP routes, one ``APIRouter`` per area (docs/protocol.md)."""
