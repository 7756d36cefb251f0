# dpq container image. Build: docker build -t dpq .
# Stages: deps (Debian packages via the same script CI runs) -> build (CMake,
# fast test suite, strip) -> runtime (slim, non-root, only shared libraries).

FROM debian:bookworm AS deps
COPY deploy/install-deps.sh /src/deploy/install-deps.sh
RUN /src/deploy/install-deps.sh && rm -rf /var/lib/apt/lists/*

FROM deps AS build
WORKDIR /src
# Build files first so that source edits reuse the configured layers.
COPY CMakeLists.txt /src/
COPY core /src/core
COPY server /src/server
COPY tests /src/tests
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
 && cmake --build build -j "$(nproc)" \
 && ctest --test-dir build --output-on-failure -LE statistical \
 && strip build/bin/dpq-measure

FROM debian:bookworm-slim AS runtime
COPY deploy/install-deps.sh /tmp/install-deps.sh
RUN /tmp/install-deps.sh --runtime && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh
COPY --from=build /src/build/bin/dpq-measure /usr/local/bin/dpq-measure
COPY deploy/demo /usr/share/dpq/demo
USER 65532:65532
VOLUME ["/data"]
WORKDIR /data
ENTRYPOINT ["/usr/local/bin/dpq-measure"]
CMD ["--data", "/usr/share/dpq/demo/hospital.csv", "--constraints", "/usr/share/dpq/demo/hospital.dc", "--measure", "mi", "--exact"]
