#!/usr/bin/python3
"""A stub Secret Service (org.freedesktop.secrets) that can refuse or stall writes on demand.

RiderKit must never drop a rotated refresh token when the keyring fails to save it: the server
has already retired the old one, so losing the new one would end the sign-in. Real providers
(gnome-keyring, KeePassXC) cannot be told to fail, so this stub serves just enough of the
Secret Service API for libsecret 0.20.5 and `secret-tool`, keeps its items in memory, and
fails writes when a test asks it to. scripts/with-stub-keyring.sh runs it on a private session
bus; run it with Debian's /usr/bin/python3 (python3-gi), not a pyenv python.

The protocol with a test, through the file named by RIDER_STUB_KEYRING_MODE_FILE, read again
on every write so a test can flip it between two steps:
  accept (or no file, or no variable)  writes succeed;
  refuse   Collection.CreateItem and Item.SetSecret fail at once with
           org.freedesktop.DBus.Error.Failed "the stub refuses writes";
  stall    they never answer (the client's own D-Bus timeout, 25 s in libsecret, ends them);
           reads keep working;
  anything else is refused too (with its own message), so a typo never passes as accept.
Every write attempt (CreateItem or SetSecret, whatever the mode) is counted, and the count is
written to "$RIDER_STUB_KEYRING_MODE_FILE.writes" *before* the stub answers: when the client
sees the error the count already includes that attempt, and a stalled call shows up there as
soon as it arrives. The stub writes 0 there when it starts. Deletes are never refused.
"""
import os
import sys
import time

from gi.repository import Gio, GLib

BUS_NAME = "org.freedesktop.secrets"
SERVICE_PATH = "/org/freedesktop/secrets"
COLLECTION_PATH = "/org/freedesktop/secrets/collection/login"
# libsecret's secret_password_store (and so `secret-tool store`) never reads the alias: it
# calls CreateItem on this path directly, and on UnknownObject it would try CreateCollection.
ALIAS_PATH = "/org/freedesktop/secrets/aliases/default"
NO_PROMPT = "/"
MODE_FILE = os.environ.get("RIDER_STUB_KEYRING_MODE_FILE", "")

INTERFACES = Gio.DBusNodeInfo.new_for_xml("""
<node>
  <interface name="org.freedesktop.Secret.Service">
    <method name="OpenSession">
      <arg name="algorithm" type="s" direction="in"/><arg name="input" type="v" direction="in"/>
      <arg name="output" type="v" direction="out"/><arg name="result" type="o" direction="out"/>
    </method>
    <method name="SearchItems">
      <arg name="attributes" type="a{ss}" direction="in"/>
      <arg name="unlocked" type="ao" direction="out"/><arg name="locked" type="ao" direction="out"/>
    </method>
    <method name="Unlock">
      <arg name="objects" type="ao" direction="in"/>
      <arg name="unlocked" type="ao" direction="out"/><arg name="prompt" type="o" direction="out"/>
    </method>
    <method name="Lock">
      <arg name="objects" type="ao" direction="in"/>
      <arg name="locked" type="ao" direction="out"/><arg name="prompt" type="o" direction="out"/>
    </method>
    <method name="GetSecrets">
      <arg name="items" type="ao" direction="in"/><arg name="session" type="o" direction="in"/>
      <arg name="secrets" type="a{o(oayays)}" direction="out"/>
    </method>
    <method name="ReadAlias">
      <arg name="name" type="s" direction="in"/><arg name="collection" type="o" direction="out"/>
    </method>
    <property name="Collections" type="ao" access="read"/>
  </interface>
  <interface name="org.freedesktop.Secret.Collection">
    <method name="CreateItem">
      <arg name="properties" type="a{sv}" direction="in"/>
      <arg name="secret" type="(oayays)" direction="in"/><arg name="replace" type="b" direction="in"/>
      <arg name="item" type="o" direction="out"/><arg name="prompt" type="o" direction="out"/>
    </method>
    <method name="SearchItems">
      <arg name="attributes" type="a{ss}" direction="in"/><arg name="results" type="ao" direction="out"/>
    </method>
    <signal name="ItemCreated"><arg name="item" type="o"/></signal>
    <signal name="ItemDeleted"><arg name="item" type="o"/></signal>
    <signal name="ItemChanged"><arg name="item" type="o"/></signal>
    <property name="Items" type="ao" access="read"/>
    <property name="Label" type="s" access="readwrite"/>
    <property name="Locked" type="b" access="read"/>
    <property name="Created" type="t" access="read"/>
    <property name="Modified" type="t" access="read"/>
  </interface>
  <interface name="org.freedesktop.Secret.Item">
    <method name="Delete"><arg name="prompt" type="o" direction="out"/></method>
    <method name="GetSecret">
      <arg name="session" type="o" direction="in"/><arg name="secret" type="(oayays)" direction="out"/>
    </method>
    <method name="SetSecret"><arg name="secret" type="(oayays)" direction="in"/></method>
    <property name="Locked" type="b" access="read"/>
    <property name="Attributes" type="a{ss}" access="readwrite"/>
    <property name="Label" type="s" access="readwrite"/>
    <property name="Created" type="t" access="read"/>
    <property name="Modified" type="t" access="read"/>
  </interface>
  <interface name="org.freedesktop.Secret.Session">
    <method name="Close"/>
  </interface>
</node>""")
SERVICE, COLLECTION, ITEM, SESSION = (INTERFACES.lookup_interface("org.freedesktop.Secret." + name)
                                      for name in ("Service", "Collection", "Item", "Session"))


class Item:
    def __init__(self, label, attributes, secret):
        self.label, self.attributes = label, attributes
        self.value, self.content_type = secret
        self.created = self.modified = int(time.time())
        self.registration = 0


class Stub:
    def __init__(self, connection):
        self.connection = connection
        self.items = {}          # object path -> Item, in creation order
        self.next_item = self.next_session = 1
        self.collection_label = "Stub"
        self.created = int(time.time())
        self.writes = 0
        self.stalled = []        # invocations of stalled writes: kept, so never answered
        self.asked_for_dh = set()  # bus names of clients that asked for a DH session
        self.record_writes()
        for path, interface in ((SERVICE_PATH, SERVICE), (COLLECTION_PATH, COLLECTION),
                                (ALIAS_PATH, COLLECTION)):
            self.register(path, interface)

    def register(self, path, interface):
        # GDBus answers Introspect and org.freedesktop.DBus.Properties Get/GetAll/Set for us,
        # through get_property/set_property.
        return self.connection.register_object(path, interface, self.call, self.get_property,
                                               self.set_property)

    # Writes and the mode file.

    def mode(self):
        try:
            with open(MODE_FILE) as file:
                return file.read().strip() or "accept"
        except (FileNotFoundError, IsADirectoryError):  # no variable (path "") or no file yet
            return "accept"

    def record_writes(self):
        if not MODE_FILE:
            return
        # Through a rename, so a test polling the file never reads it half written.
        with open(MODE_FILE + ".writes.tmp", "w") as file:
            file.write("%d\n" % self.writes)
        os.replace(MODE_FILE + ".writes.tmp", MODE_FILE + ".writes")

    def may_write(self, invocation):
        """Counts the attempt; answers it (refuse) or keeps it (stall) unless writes are on."""
        mode = self.mode()
        self.writes += 1
        self.record_writes()
        if mode in ("accept", "stall-reads", "refuse-plain-first"):
            return True
        if mode == "stall":
            self.stalled.append(invocation)
        elif mode == "refuse":
            invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed", "the stub refuses writes")
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed",
                                         "the stub refuses writes: unknown mode %r in %s" % (mode, MODE_FILE))
        return False

    # Method calls: one dispatcher for every object, by interface and method name.

    def call(self, connection, sender, path, interface, method, parameters, invocation):
        args = parameters.unpack()
        print("stub:", interface.rsplit(".", 1)[-1] + "." + method, path, file=sys.stderr, flush=True)
        handler = getattr(self, interface.rsplit(".", 1)[-1] + "_" + method)
        try:
            result = handler(path, invocation, *args)
        except Exception as error:  # a bug here must not look like a stall to the client
            invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed", "stub bug: %r" % error)
            raise
        if result is not None:  # None: the handler answered already, or never will (stall)
            invocation.return_value(result)

    def Service_OpenSession(self, path, invocation, algorithm, _input):
        # Only "plain": libsecret first asks for dh-ietf1024-sha256-aes128-cbc-pkcs7 and falls
        # back to plain on exactly this error (secret-session.c, G_DBUS_ERROR_NOT_SUPPORTED).
        sender = invocation.get_sender()
        if algorithm != "plain":
            self.asked_for_dh.add(sender)
            invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported",
                                         "the stub only offers plain sessions")
            return None
        # `refuse-plain-first`: plain only for a client that asked for DH first, as libsecret
        # does; a client that opens with plain is refused, as the specification lets a provider.
        if self.mode() == "refuse-plain-first" and sender not in self.asked_for_dh:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported",
                                         "the stub offers plain sessions only after a DH request")
            return None
        session = "%s/session/%d" % (SERVICE_PATH, self.next_session)
        self.next_session += 1
        self.register(session, SESSION)
        return GLib.Variant("(vo)", (GLib.Variant("s", ""), session))

    def Session_Close(self, path, invocation):
        return GLib.Variant("()", ())  # the registration stays: sessions are cheap and few

    def Service_SearchItems(self, path, invocation, attributes):
        return GLib.Variant("(aoao)", (self.search(attributes), []))  # nothing is ever locked

    def Service_Unlock(self, path, invocation, objects):
        return GLib.Variant("(aoo)", (objects, NO_PROMPT))

    def Service_Lock(self, path, invocation, objects):
        return GLib.Variant("(aoo)", ([], NO_PROMPT))  # the stub never locks anything

    def stall_read(self, invocation):
        """In `stall-reads` mode keeps a secret's read unanswered, as a stuck provider would."""
        if self.mode() != "stall-reads":
            return False
        self.stalled.append(invocation)
        return True

    def Service_GetSecrets(self, path, invocation, paths, session):
        if self.stall_read(invocation):
            return None
        return GLib.Variant("(a{o(oayays)})", ({p: self.secret(p, session) for p in paths if p in self.items},))

    def Service_ReadAlias(self, path, invocation, name):
        return GLib.Variant("(o)", (COLLECTION_PATH if name == "default" else NO_PROMPT,))

    def Collection_SearchItems(self, path, invocation, attributes):
        return GLib.Variant("(ao)", (self.search(attributes),))

    def Collection_CreateItem(self, path, invocation, properties, secret, replace):
        if not self.may_write(invocation):
            return None
        label = properties.get("org.freedesktop.Secret.Item.Label", "")
        attributes = properties.get("org.freedesktop.Secret.Item.Attributes", {})
        # replace=true (what secret_password_store and `secret-tool store` send): an item with
        # exactly these attributes is updated in place rather than duplicated.
        same = [p for p, item in self.items.items() if item.attributes == attributes] if replace else []
        if same:
            item_path = same[0]
            item = self.items[item_path]
            item.label, (item.value, item.content_type) = label, self.decode(secret)
            item.modified = int(time.time())
            self.emit("ItemChanged", item_path)
        else:
            item_path = "%s/%d" % (COLLECTION_PATH, self.next_item)
            self.next_item += 1
            item = self.items[item_path] = Item(label, attributes, self.decode(secret))
            item.registration = self.register(item_path, ITEM)
            self.emit("ItemCreated", item_path)
        return GLib.Variant("(oo)", (item_path, NO_PROMPT))

    def Item_GetSecret(self, path, invocation, session):
        if self.stall_read(invocation):
            return None
        return GLib.Variant("((oayays))", (self.secret(path, session),))

    def Item_SetSecret(self, path, invocation, secret):
        if not self.may_write(invocation):
            return None
        item = self.items[path]
        item.value, item.content_type = self.decode(secret)
        item.modified = int(time.time())
        self.emit("ItemChanged", path)
        return GLib.Variant("()", ())

    def Item_Delete(self, path, invocation):
        item = self.items.pop(path)
        self.connection.unregister_object(item.registration)
        self.emit("ItemDeleted", path)
        return GLib.Variant("(o)", (NO_PROMPT,))

    # Helpers.

    def search(self, attributes):
        return [path for path, item in self.items.items()
                if all(item.attributes.get(name) == value for name, value in attributes.items())]

    def decode(self, secret):
        # A plain session: the secret travels as is, with empty parameters.
        _session, _parameters, value, content_type = secret
        return bytes(value), content_type

    def secret(self, path, session):
        item = self.items[path]
        return (session, b"", item.value, item.content_type)

    def emit(self, signal, item_path):
        self.connection.emit_signal(None, COLLECTION_PATH, COLLECTION.name, signal,
                                    GLib.Variant("(o)", (item_path,)))

    # Properties (GDBus calls these for Properties.Get/GetAll/Set).

    def get_property(self, connection, sender, path, interface, name):
        if interface == SERVICE.name:
            return GLib.Variant("ao", [COLLECTION_PATH])
        if interface == COLLECTION.name:
            return {"Items": GLib.Variant("ao", list(self.items)),
                    "Label": GLib.Variant("s", self.collection_label),
                    "Locked": GLib.Variant("b", False),
                    "Created": GLib.Variant("t", self.created),
                    "Modified": GLib.Variant("t", self.created)}[name]
        item = self.items[path]
        return {"Locked": GLib.Variant("b", False),
                "Attributes": GLib.Variant("a{ss}", item.attributes),
                "Label": GLib.Variant("s", item.label),
                "Created": GLib.Variant("t", item.created),
                "Modified": GLib.Variant("t", item.modified)}[name]

    def set_property(self, connection, sender, path, interface, name, value):
        # Label and attributes are metadata, not the secret: never refused, never counted.
        if interface == COLLECTION.name:
            self.collection_label = value.unpack()
        elif name == "Label":
            self.items[path].label = value.unpack()
        else:
            self.items[path].attributes = value.unpack()
        return True


def main():
    connection = Gio.bus_get_sync(Gio.BusType.SESSION, None)  # exits when the bus goes away
    stub = Stub(connection)  # noqa: F841 (held while the loop runs: it keeps the stalled calls)
    # The name only once every object is registered, so a client that sees the owner finds
    # them all. DO_NOT_QUEUE (4): if someone else serves the secrets here, fail loudly.
    reply = connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                 "RequestName", GLib.Variant("(su)", (BUS_NAME, 4)), GLib.VariantType("(u)"),
                                 Gio.DBusCallFlags.NONE, -1, None)
    if reply.unpack()[0] != 1:
        sys.exit("secret-service-stub: %s is already taken on this bus" % BUS_NAME)
    print("secret-service-stub: serving %s (mode file: %s)" % (BUS_NAME, MODE_FILE or "none"),
          file=sys.stderr, flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
