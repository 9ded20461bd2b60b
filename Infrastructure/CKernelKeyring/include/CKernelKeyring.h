#ifndef RIDER_CKERNELKEYRING_H
#define RIDER_CKERNELKEYRING_H

#include <stddef.h>

/// The Linux kernel key retention service (keyctl(2), add_key(2), request_key(2)) for the
/// encrypted-file vault's derived key: `syscall` is variadic, which Swift cannot call, so these
/// small wrappers make the calls. Each returns a non-negative result, or -errno.

/// Whether the user keyring answers (seccomp profiles of containers often refuse keyctl).
long rider_keyring_probe(void);

/// Adds (or replaces) a "user" key in the user keyring (@u), readable by this user's later
/// processes only — a process of another user that possesses it through a shared session
/// keyring may see it, not find or read it — expiring after `timeout_seconds`.
long rider_keyring_add(const char *description, const void *payload, size_t length, unsigned timeout_seconds);

/// Reads the key `description` from the user keyring into `buffer`: its length, or -ENOKEY.
long rider_keyring_read(const char *description, void *buffer, size_t length);

/// Invalidates the key `description` in the user keyring: 0, or -ENOKEY when there is none.
long rider_keyring_forget(const char *description);

/// Invalidates every key in the user keyring whose description starts with `prefix`: how many.
long rider_keyring_forget_prefix(const char *prefix);

#endif
