#include "CKernelKeyring.h"

#include <errno.h>
#include <linux/keyctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// Possessor: view only. Possession is not ownership: another user whose process shares the
// session keyring (after `sudo -u`, or `su` without pam_keyinit) possesses every key in @u that is
// linked there. Not `read`, and not `search` either: KEYCTL_READ also lets a possessor read a key
// it may search for (keyctl(2)), so a searchable key is a readable one. The owner: view, read and
// search (its later processes find and read the key through these, possessing it or not, as in a
// container's session), and link (to move it into @u, below). Nobody else anything.
// (keyutils.h's names; <linux/keyctl.h> does not define them.)
enum {
    key_pos_view = 0x01000000,
    key_usr_view = 0x00010000, key_usr_read = 0x00020000, key_usr_search = 0x00080000, key_usr_link = 0x00100000,
};
static const uint32_t possessor = key_pos_view;
static const uint32_t owner = key_usr_view | key_usr_read | key_usr_search | key_usr_link;

static long result(long value) { return value < 0 ? -errno : value; }

long rider_keyring_probe(void) {
    return result(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0));
}

long rider_keyring_add(const char *description, const void *payload, size_t length, unsigned timeout_seconds) {
    // Made in this thread's own keyring, which no other process reaches, and linked into @u only
    // once its timeout is set and its permissions narrowed: add_key grants the possessor `read`,
    // and in @u another possessor could read it in between. The timeout comes first, while the
    // possessor may still set attributes. Linking displaces an older key of the same name in @u,
    // so an update never needs `write`.
    long id = syscall(SYS_add_key, "user", description, payload, length, KEY_SPEC_THREAD_KEYRING);
    if (id < 0) return -errno;
    long failure = 0;
    if (syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, id, timeout_seconds) < 0 ||
        syscall(SYS_keyctl, KEYCTL_SETPERM, id, possessor | owner) < 0 ||
        syscall(SYS_keyctl, KEYCTL_LINK, id, KEY_SPEC_USER_KEYRING) < 0) {
        failure = -errno;
    }
    syscall(SYS_keyctl, KEYCTL_UNLINK, id, KEY_SPEC_THREAD_KEYRING);
    if (failure != 0) {
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
