#!/usr/bin/env python3
"""Prepares the run directory and serves the peer provider on 127.0.0.1:$PEER_PORT with waitress,
in the foreground.

Before serving it migrates the database and runs `seed_peer`, both idempotent, in this same
process: a reused run directory keeps its keys and tokens and gets the seeded person and clients
reset to their known state, and Django boots once instead of three times (a second or so each).

waitress rather than `manage.py runserver`: it is a production WSGI server with a thread pool
(a browser's page load, a CLI's token poll and a test's discovery fetch are served at once),
it serves with DEBUG off, and it has no autoreloader to fork a second process.

Prints `peer provider ready: <issuer>` on stdout once the socket is listening, and exits with
status 0 on SIGTERM or SIGINT.
"""

import os
import signal
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "peer.settings")

import django  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from waitress.server import create_server  # noqa: E402


def main():
    # A parent may start us with SIGTERM and SIGINT blocked (Foundation's Process on Linux passes
    # its threads' blocked signals on): unblocked, or stopping would never reach the handlers below.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    django.setup()
    # Progress goes to stderr: stdout carries only the ready line.
    call_command("migrate", interactive=False, verbosity=0, stdout=sys.stderr)
    call_command("seed_peer", stdout=sys.stderr)
    application = get_wsgi_application()
    # create_server binds and listens before returning: from here on a connection is queued
    # by the kernel and served as soon as run() starts, so "ready" is true when printed.
    server = create_server(application, host="127.0.0.1", port=settings.PORT, threads=8, ident="peer-provider")

    def stop(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"peer provider ready: {settings.ISSUER}", flush=True)
    try:
        server.run()
    finally:
        # Closes the listening socket; waitress's worker threads are daemons and end with us.
        server.close()


if __name__ == "__main__":
    sys.exit(main())
