"""What the test peers under scripts/ share: stopping once whoever started them is gone."""
import os
import signal
import threading
import time


def stop_when_orphaned():
    """SIGTERM to this process once its parent is gone (a test run killed outright never sends
    one), so nothing is left running after it. Polls getppid: PR_SET_PDEATHSIG would fire when the
    parent's spawning thread ends, which in a thread-pooled parent is not the parent ending."""
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(1)
            if os.getppid() != parent:
                os.kill(os.getpid(), signal.SIGTERM)  # again each second until it is heard

    threading.Thread(target=watch, daemon=True).start()
