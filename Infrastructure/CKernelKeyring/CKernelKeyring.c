#include "CKernelKeyring.h"

#include <errno.h>
#include <linux/keyctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// Possessor: everything; the same user: view, read, search (so a later process of the user finds
// it without possessing it, as in a container's session); nobody else anything.
static const uint32_t permissions = 0x3f000000u | 0x00010000u | 0x00020000u | 0x00080000u;

static long result(long value) { return value < 0 ? -errno : value; }

long rider_keyring_probe(void) {
    return result(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0));
}

long rider_keyring_add(const char *description, const void *payload, size_t length, unsigned timeout_seconds) {
    long id = syscall(SYS_add_key, "user", description, payload, length, KEY_SPEC_USER_KEYRING);
    if (id < 0) return -errno;
    if (syscall(SYS_keyctl, KEYCTL_SETPERM, id, permissions) < 0 ||
        syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, id, timeout_seconds) < 0) {
        long failure = -errno;
        syscall(SYS_keyctl, KEYCTL_INVALIDATE, id);
        return failure;
    }
    return id;
}

/// The key's id in the user keyring, searched there only (not the session or process keyrings).
static long find(const char *description) {
    return result(syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", description, 0));
}

long rider_keyring_read(const char *description, void *buffer, size_t length) {
    long id = find(description);
    if (id < 0) return id;
    return result(syscall(SYS_keyctl, KEYCTL_READ, id, buffer, length));
}

long rider_keyring_forget(const char *description) {
    long id = find(description);
    if (id < 0) return id;
    return result(syscall(SYS_keyctl, KEYCTL_INVALIDATE, id));
}

long rider_keyring_forget_prefix(const char *prefix) {
    int32_t ids[1024];
    long size = syscall(SYS_keyctl, KEYCTL_READ, KEY_SPEC_USER_KEYRING, ids, sizeof ids);
    if (size < 0) return -errno;
    long count = (size > (long)sizeof ids ? (long)sizeof ids : size) / (long)sizeof(int32_t);
    long forgotten = 0;
    for (long index = 0; index < count; index++) {
        char description[512];
        long described = syscall(SYS_keyctl, KEYCTL_DESCRIBE, ids[index], description, sizeof description);
        if (described <= 0 || described > (long)sizeof description) continue;
        description[sizeof description - 1] = 0;
        // "type;uid;gid;perm;description": the description follows the fourth semicolon.
        char *name = description;
        for (int field = 0; field < 4 && name; field++) {
            name = strchr(name, ';');
            if (name) name++;
        }
        if (!name || strncmp(name, prefix, strlen(prefix)) != 0) continue;
        if (syscall(SYS_keyctl, KEYCTL_INVALIDATE, ids[index]) == 0) forgotten++;
    }
    return forgotten;
}
