// LeakSanitizer suppressions for the integration test process and
// tests/server/transport_test (the
// dpq-server processes it starts keep full leak checking; the dpq client
// processes get the same one suppression from lsan_client.supp, through
// RunCommand, for the same reason: seen once in CliTest.
// BuyerSessionWithTablesAndJson under ASan, "904 bytes" from CRYPTO_zalloc).
//
// This process talks TLS through gRPC, whose internal threads call OpenSSL.
// OpenSSL 3 keeps a per-thread error state (ERR_STATE, 904 bytes, allocated
// with CRYPTO_zalloc on a thread's first TLS error, e.g. a handshake with a
// server that is being terminated) and frees it when the thread exits. When
// the test process exits while gRPC threads are still winding down, LSan
// rarely reports those states as leaks (seen once in LedgerTest.
// SigtermDuringABurstDrainsAndExitsCleanly: "2 objects, 1808 bytes" from
// CRYPTO_zalloc). libcrypto has no frame pointers, so the report's stack
// ends at CRYPTO_zalloc and cannot name a narrower caller. Our own OpenSSL
// use (tokens, hashes, the CSPRNG) runs in dpq-server and in the unit
// tests, which are checked without this suppression (transport_test's
// in-process server does it too, but the same code is checked by the
// other server tests without it).
extern "C" const char* __lsan_default_suppressions();

extern "C" const char* __lsan_default_suppressions() {
  return "leak:CRYPTO_zalloc\n";
}
