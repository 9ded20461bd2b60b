#!/usr/bin/env python3
"""What the `rider` front costs and saves: whole processes, start to exit, front vs rider-core.

    scripts/measure-front.py BIN_DIR [RUNS]

BIN_DIR holds `rider` (the front) and `rider-core` (make static-rider: .build-static/release);
rider-server comes from the release build (.build/release), else from BIN_DIR. Each command runs
RUNS times (default 100) through the front and straight through rider-core, interleaved, next to
/bin/true; p50 and p90 in ms. The session is the encrypted file unlocked once into the kernel
keyring, so no run pays scrypt (the cheapest vault: what is left is the process).
Figures: docs/performance.md, "A front for `rider`".
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spawn(path, arguments, environment):
    """Milliseconds from posix_spawn to the child's exit, its status, and its CPU time (user +
    system, ms): the CPU time is what a loaded machine disturbs least."""
    with open(os.devnull, "wb") as null:
        actions = [(os.POSIX_SPAWN_DUP2, null.fileno(), 1), (os.POSIX_SPAWN_DUP2, null.fileno(), 2)]
        start = time.perf_counter()
        pid = os.posix_spawn(path, [path] + arguments, environment, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        return ((time.perf_counter() - start) * 1000, os.waitstatus_to_exitcode(status),
                (usage.ru_utime + usage.ru_stime) * 1000)


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    front, core = os.path.join(folder, "rider"), os.path.join(folder, "rider-core")
    server_binary = next(path for path in [os.path.join(ROOT, ".build/release/rider-server"),
                                           os.path.join(folder, "rider-server")] if os.access(path, os.X_OK))
    work = tempfile.mkdtemp(prefix="measure-front.")
    server = subprocess.Popen([server_binary, "--port", "0", "--seed-users", "200", "--access-ttl", "3600",
                               "--enable-test-hooks", "--exit-with-parent"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = None
        while base is None:
            line = server.stdout.readline()
            if not line:
                sys.exit("measure-front: rider-server did not start")
            found = re.search(r"http://127\.0\.0\.1:[0-9]+", line)
            base = found.group(0) if found else None
        home = os.path.join(work, "home")
        environment = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_STATE_HOME": home + "/.local/state",
                       "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache",
                       "RIDER_BASE_URL": base, "RIDER_VAULT": "file", "RIDER_VAULT_UNLOCK_TIMEOUT": "900"}
        login = subprocess.run([core, "login", "--email", "demo@example.com", "--password-stdin"],
                               input="rider-demo\n", text=True, capture_output=True,
                               env=dict(environment, RIDER_VAULT_PASSPHRASE="measure-front"))
        if login.returncode != 0:
            sys.exit("measure-front: rider login failed: " + login.stderr)
        commands = [["--help"], ["whoami"], ["whoami", "--policy", "cache-first"], ["session", "list"]]
        print(f"{runs} runs each, interleaved; wall p50 / p90, and CPU (user + system) p50, in ms")
        floor = [spawn("/bin/true", [], environment) for _ in range(runs)]
        print(f"{'/bin/true':45} {statistics.median(s[0] for s in floor):7.3f} / "
              f"{percentile([s[0] for s in floor], 0.9):7.3f}   CPU {statistics.median(s[2] for s in floor):7.3f}")
        for arguments in commands:
            samples = {front: [], core: []}
            cpu = {front: [], core: []}
            for _ in range(runs):
                for binary in (front, core):
                    elapsed, status, used = spawn(binary, arguments, environment)
                    if status != 0:
                        sys.exit(f"measure-front: {binary} {' '.join(arguments)} exited {status}")
                    samples[binary].append(elapsed)
                    cpu[binary].append(used)
            shown = " ".join(["rider"] + arguments)
            for binary, label in ((front, "front"), (core, "rider-core")):
                print(f"{shown + ' (' + label + ')':45} {statistics.median(samples[binary]):7.3f} / "
                      f"{percentile(samples[binary], 0.9):7.3f}   CPU {statistics.median(cpu[binary]):7.3f}")
            difference = statistics.median(samples[front]) - statistics.median(samples[core])
            cpu_difference = statistics.median(cpu[front]) - statistics.median(cpu[core])
            print(f"{'  front − rider-core, p50':45} {difference:+7.3f}             CPU {cpu_difference:+7.3f}")
        # The hand-over alone, without rider-core's own spread: the front beside a "rider-core"
        # that is /bin/true, against /bin/true itself.
        lone = os.path.join(work, "handover")
        os.mkdir(lone)
        shutil.copy2(front, os.path.join(lone, "rider"))
        shutil.copy2("/bin/true", os.path.join(lone, "rider-core"))
        handed, direct = [], []
        for _ in range(runs * 2):
            handed.append(spawn(os.path.join(lone, "rider"), ["whoami"], environment))
            direct.append(spawn("/bin/true", ["whoami"], environment))
        for label, series in (("front → execv /bin/true", handed), ("/bin/true", direct)):
            print(f"{label:45} {statistics.median(s[0] for s in series):7.3f} / "
                  f"{percentile([s[0] for s in series], 0.9):7.3f}   CPU {statistics.median(s[2] for s in series):7.3f}")
        print(f"{'  the hand-over, p50':45} "
              f"{statistics.median(s[0] for s in handed) - statistics.median(s[0] for s in direct):+7.3f}             CPU "
              f"{statistics.median(s[2] for s in handed) - statistics.median(s[2] for s in direct):+7.3f}")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
