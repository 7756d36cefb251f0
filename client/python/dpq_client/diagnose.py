"""Telling a configuration mistake from a server that is down.

gRPC reports both as UNAVAILABLE, which the SDK retries. A connection that
can never work (TLS against a plaintext server or the reverse, a CA that
did not sign the server's certificate, a server name the certificate does
not hold, mutual TLS without a client certificate) is a ConfigurationError
instead: raised at once, with the fix in its message.

Most of these show in gRPC's message ("Ssl handshake failed: ... wrong
version number"). Two do not: plaintext against a TLS server and a TLS
server that requires a client certificate both read "Socket closed", as a
server that restarts can. For those the SDK probes the server once with
Python's own TLS (no certificate checks, nothing sent but the HTTP/2
preface): a TLS handshake that succeeds answers the first question; a
server that then closes without a word, where a dpq server sends its
HTTP/2 settings, answers the second.
"""

import re
import socket
import ssl
from typing import Optional, Tuple

# Seconds a probe may take; a server that is down fails it at once.
PROBE_TIMEOUT = 2.0
# The HTTP/2 client preface and an empty SETTINGS frame.
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])

_PEER_NAME = re.compile(r"Peer name (\S+) is not in peer certificate")


def from_message(message: str, insecure: bool) -> Optional[str]:
    """The fix for a failed connection whose gRPC message says what went
    wrong, or None."""
    peer = _PEER_NAME.search(message)
    if peer:
        return (f"the server's certificate does not hold the name '{peer.group(1)}': connect "
                "by a name it holds, or pass server_name= one of them (the development "
                "certificate of deploy/make-certs.sh holds localhost, 127.0.0.1 and ::1)")
    if "Ssl handshake failed" not in message and "SSL_ERROR" not in message:
        return None
    if "wrong version number" in message.lower():
        return ("the server does not speak TLS (it was started with --insecure): connect with "
                "insecure=True, or give the server --tls-cert and --tls-key")
    if "certificate verify failed" in message.lower():
        return ("the server's certificate is not signed by the CA this client trusts (ca_file, "
                "or the system's roots without it): pass ca_file= the CA that issued it "
                "(deploy/make-certs.sh writes ca.pem)")
    detail = message.split("Ssl handshake failed:", 1)[-1].strip()
    return f"the TLS handshake with the server failed ({detail}): check ca_file and the certificates"


def _host_port(target: str) -> Optional[Tuple[str, int]]:
    """(host, port) of "host:port", "[v6]:port", "dns:///host:port" or
    "ipv4:a.b.c.d:port"; None for other targets (no probe)."""
    for prefix in ("dns:///", "ipv4:", "ipv6:"):
        if target.startswith(prefix):
            target = target[len(prefix):]
    m = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\]:(\d+)|([^:/\[\]]+):(\d+)", target)
    if not m:
        return None
    host = m.group(1) or m.group(3)
    return host, int(m.group(2) or m.group(4))


def _probe(host: str, port: int) -> Optional[bool]:
    """Connects with TLS (no certificate checks) and sends the HTTP/2
    preface: True if the server then answers, False if it closes without a
    word, None if there was no TLS handshake (down, or not TLS)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT) as raw:
            with context.wrap_socket(raw, server_hostname=host) as tls:
                tls.sendall(_PREFACE)
                return len(tls.recv(64)) > 0
    except (OSError, ssl.SSLError):
        return None


def after_socket_closed(target: str, insecure: bool, client_cert: bool) -> Optional[str]:
    """The fix after a "Socket closed" failure, if a probe finds one."""
    address = _host_port(target)
    if address is None:
        return None
    answered = _probe(*address)
    if answered is None:
        return None
    if insecure:
        return ("the server speaks TLS, but this client connects in plaintext (insecure=True): "
                "drop insecure=True and pass ca_file= the CA that issued the server's "
                "certificate")
    if answered is False:
        if client_cert:
            return ("the server closed the connection after the TLS handshake: it did not accept "
                    "this client certificate (mutual TLS): use one issued by the CA the server "
                    "trusts (its --client-ca)")
        return ("the server closed the connection after the TLS handshake: it requires a client "
                "certificate (mutual TLS, --client-ca): pass client_cert_file and "
                "client_key_file")
    return None
