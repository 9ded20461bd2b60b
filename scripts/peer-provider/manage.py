#!/usr/bin/env python3
"""Django's command line for the peer provider (migrate, seed_peer, …). Needs PEER_RUN_DIR and
PEER_PORT in the environment; scripts/peer-provider.sh sets them."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "peer.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
