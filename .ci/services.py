"""CI's first step: the services this machine kind runs for the tests must be there.

The tests that need PostgreSQL or Redis skip, with the reason shown, where
those services do not run; on this machine kind they always run (see the
README's "Many processes"), so a missing one fails CI here instead of
letting it pass by skipping.
"""

import os
import socket
import sys

SERVICES = {
    "PostgreSQL": os.environ.get("DOUBLESIX_TEST_POSTGRES_ADDRESS", "127.0.0.1:5432"),
    "Redis": os.environ.get("DOUBLESIX_TEST_REDIS_ADDRESS", "127.0.0.1:6379"),
}

missing = []
for name, address in SERVICES.items():
    host, port = address.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as e:
        missing.append(f"{name} at {address}: {e}")
if missing:
    sys.exit("CI needs these services running:\n  " + "\n  ".join(missing))
print("services: PostgreSQL and Redis are running")
