# dpq container image: dpq-server, with the dpq client (used by HEALTHCHECK)
# and the owner tool dpq-measure.
#   docker build -t dpq .
#   deploy/make-certs.sh certs          # dev CA + server cert (never baked in)
#   docker run -p 50051:50051 -v dpq-data:/data -v "$PWD/certs:/etc/dpq:ro" dpq
# Stages: deps (Debian packages via deploy/install-deps.sh, the same script CI
# runs) -> build (CMake Release, fast test suite, strip) -> runtime (slim,
# shared libraries only, non-root, data volume).

FROM debian:bookworm AS deps
COPY deploy/install-deps.sh /src/deploy/install-deps.sh
RUN /src/deploy/install-deps.sh --no-browser && rm -rf /var/lib/apt/lists/*

FROM deps AS build
WORKDIR /src
# Build files first, then the sources in dependency order.
COPY CMakeLists.txt /src/
COPY proto /src/proto
COPY core /src/core
COPY server /src/server
COPY client /src/client
COPY tools /src/tools
COPY tests /src/tests
COPY bench /src/bench
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
 && cmake --build build -j "$(nproc)"
# The fast suite (no statistical tests), including the integration tests
# against the built dpq-server and dpq, and the checks on this Dockerfile,
# the README, .dockerignore, the CI script and the docs a test checks (the
# config keys of docs/operations.md). Tests that read the benchmark
# files in ../shared/data (outside this build context; ctest label
# shared-data) are left to CI, and so are those that start PostgreSQL
# clusters and nginx (labels postgresql, nginx: servers a build sandbox
# need not be able to run), and the console's tests in Chromium (label
# browser: the deps stage installs no browser, --no-browser). deploy/ is only read by tests (TLS
# material, demo data), and so is docs/, so both come after the build: an
# edit to a deploy script or a doc does not recompile the tree.
COPY deploy /src/deploy
COPY docs /src/docs
COPY README.md Dockerfile .dockerignore /src/
COPY .ci /src/.ci
RUN ctest --test-dir build --output-on-failure -j "$(nproc)" \
      -LE "statistical|shared-data|postgresql|nginx|browser" \
 && strip build/bin/dpq-server build/bin/dpq build/bin/dpq-measure

FROM debian:bookworm-slim AS runtime
COPY deploy/install-deps.sh /tmp/install-deps.sh
RUN /tmp/install-deps.sh --runtime \
 && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh \
 && groupadd --system --gid 65532 dpq \
 && useradd --system --uid 65532 --gid 65532 --home-dir /data \
      --shell /usr/sbin/nologin --no-create-home dpq \
 && mkdir -p /data /etc/dpq \
 && chown 65532:65532 /data \
 && chmod 0700 /data
COPY --from=build /src/build/bin/dpq-server /usr/local/bin/dpq-server
COPY --from=build /src/build/bin/dpq /usr/local/bin/dpq
COPY --from=build /src/build/bin/dpq-measure /usr/local/bin/dpq-measure
# Demo data: upload it with `dpq admin register --data`, or let the server
# read it (`--server-path /usr/share/dpq/demo/...`) after adding
# `--import-dir /usr/share/dpq/demo` to the arguments. The default CMD keeps
# server-side imports off, as dpq-server does (docs/security.md, item 3).
COPY deploy/demo /usr/share/dpq/demo
COPY deploy/dpq-server.conf.example /usr/share/dpq/dpq-server.conf.example
USER 65532:65532
# Datasets, ledger.db, accounts.db and admin.token live here.
VOLUME ["/data"]
WORKDIR /data
EXPOSE 50051
# --metrics-listen 0.0.0.0:9464 (off unless given; docs/operations.md).
EXPOSE 9464
# Certificates (ca.pem, server.pem, server.key) are mounted at run time into
# /etc/dpq. `dpq health` speaks the standard gRPC health protocol over TLS.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["dpq","health","--server","localhost:50051","--ca","/etc/dpq/ca.pem"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["dpq-server"]
CMD ["--data-dir","/data","--listen","0.0.0.0:50051","--tls-cert","/etc/dpq/server.pem","--tls-key","/etc/dpq/server.key"]
