"""One gRPC channel per (target, token, TLS settings), shared.

Clients made with the same settings share one channel (one HTTP/2
connection); a channel is closed when the last Client using it closes.
"""

import threading
from typing import Any, Dict, List, Optional, Tuple

import grpc

# Messages up to 64 MiB (a large cuboid release); the server has its own
# --max-message-bytes.
_OPTIONS = (("grpc.max_receive_message_length", 64 * 1024 * 1024),)

_lock = threading.Lock()
_pool: Dict[Tuple[Any, ...], List[Any]] = {}  # key -> [channel, refcount]


def _credentials(token: Optional[str], ca_pem: Optional[bytes], cert_pem: Optional[bytes],
                 key_pem: Optional[bytes]) -> grpc.ChannelCredentials:
    tls = grpc.ssl_channel_credentials(
        root_certificates=ca_pem, private_key=key_pem, certificate_chain=cert_pem)
    if not token:
        return tls
    # The token travels as "authorization: Bearer <token>" on every call;
    # gRPC sends call credentials only over TLS.
    return grpc.composite_channel_credentials(tls, grpc.access_token_call_credentials(token))


def acquire(target: str, token: Optional[str], insecure: bool, ca_pem: Optional[bytes],
            cert_pem: Optional[bytes], key_pem: Optional[bytes],
            server_name: Optional[str]) -> Tuple[Tuple[Any, ...], grpc.Channel]:
    """The shared channel for these settings (ref-counted)."""
    key = (target, token, insecure, ca_pem, cert_pem, key_pem, server_name)
    with _lock:
        entry = _pool.get(key)
        if entry is None:
            options = list(_OPTIONS)
            if insecure:
                channel = grpc.insecure_channel(target, options=options)
            else:
                if server_name:
                    options.append(("grpc.ssl_target_name_override", server_name))
                channel = grpc.secure_channel(
                    target, _credentials(token, ca_pem, cert_pem, key_pem), options=options)
            entry = _pool[key] = [channel, 0]
        entry[1] += 1
        return key, entry[0]


def release(key: Tuple[Any, ...]) -> None:
    """Drops one reference; closes the channel with the last."""
    with _lock:
        entry = _pool.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] == 0:
            del _pool[key]
            entry[0].close()
