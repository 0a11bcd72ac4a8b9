"""Alembic migrations of the server's database, applied at start-up (``store.migrate``)."""
