"""A minimal RFB (VNC) client that only resizes a display head: QEMU's way to plug and unplug a virtio-gpu head.

QEMU 7.2 has no monitor command that connects or disconnects a virtio-gpu output; its UIs do it by telling the
device the size of their window (dpy_set_ui_info). Its VNC server forwards an RFB SetDesktopSize message there:
a size turns the head on with that preferred mode (the EDID follows), 0x0 turns it off. virtio-gpu then sends the
guest a display-change event, and the guest kernel a HOTPLUG=1 "change" uevent, as a monitor plugged or
unplugged would. The VM gets a VNC server per head with
`extra_args=["-vnc", "unix:PATH,display=gpu0,head=N"]` (RFB 3.8, no authentication)."""
import socket
import struct

ENCODING_EXTENDED_DESKTOP_SIZE = -308
MSG_SET_ENCODINGS = 2
MSG_SET_DESKTOP_SIZE = 251


def _recv(sock, n):
    data = b""
    while len(data) < n:
        part = sock.recv(n - len(data))
        if not part:
            raise OSError("VNC server closed the connection")
        data += part
    return data


def set_head_size(path, width, height, timeout=10):
    """Connects to the VNC server on unix socket PATH and asks for a WIDTHxHEIGHT desktop (0x0: the head off).
    Returns the size the server had before. The message is QEMU's to forward; the guest sees it as a hotplug."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
        version = _recv(sock, 12)
        if not version.startswith(b"RFB 003."):
            raise OSError("not an RFB server: %r" % version)
        sock.sendall(b"RFB 003.008\n")
        n = _recv(sock, 1)[0]
        types = _recv(sock, n) if n else b""
        if 1 not in types:
            raise OSError("the VNC server wants authentication (security types %r)" % list(types))
        sock.sendall(bytes([1]))
        if struct.unpack(">I", _recv(sock, 4))[0] != 0:
            raise OSError("VNC security handshake failed")
        sock.sendall(bytes([1]))  # ClientInit: shared
        w, h = struct.unpack(">HH", _recv(sock, 4))
        _recv(sock, 16)  # pixel format
        _recv(sock, struct.unpack(">I", _recv(sock, 4))[0])  # name
        sock.sendall(struct.pack(">BxHi", MSG_SET_ENCODINGS, 1, ENCODING_EXTENDED_DESKTOP_SIZE))
        screen = struct.pack(">IHHHHI", 0, 0, 0, width, height, 0)
        sock.sendall(struct.pack(">BxHHBx", MSG_SET_DESKTOP_SIZE, width, height, 1) + screen)
        # The server answers with an ExtendedDesktopSize update once it handled the request; read a little so
        # that closing the socket does not race the message (QEMU reads it before it sees the hang-up anyway).
        try:
            sock.recv(64)
        except socket.timeout:
            pass
        return w, h
    finally:
        sock.close()
