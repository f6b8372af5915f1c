# Multi-stage build: compile with the Swift toolchain on Debian 12, run on a slim Debian 12 with
# only the shared libraries. Both stages install packages through scripts/install-deps, the
# same script .ci/run uses.
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY scripts/install-deps scripts/install-deps
RUN scripts/install-deps
COPY . .
RUN swift build -c release --product phone-verify --static-swift-stdlib \
 && install -D .build/release/phone-verify /out/phone-verify

FROM debian:bookworm-slim
COPY scripts/install-deps /usr/local/lib/phone-verify/install-deps
RUN /usr/local/lib/phone-verify/install-deps --runtime && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home /var/lib/phone-verify --create-home phone-verify \
 && install -d -o phone-verify -g phone-verify -m 0700 /var/lib/phone-verify/data
# (created owned by the service user before VOLUME: a new volume copies this ownership, while a
# directory the image lacks would be created root-owned and the database could not be opened)
COPY --from=build /out/phone-verify /usr/local/bin/phone-verify
USER phone-verify
WORKDIR /var/lib/phone-verify
# Production by default: a container listens on 0.0.0.0, and development mode would serve the dev
# inbox (codes, also those sent through real gateways) to the network and generate its own keys.
# The dev compose file sets PHONE_VERIFY_MODE=development itself.
ENV MALLOC_ARENA_MAX=2 \
    PHONE_VERIFY_MODE=production \
    PHONE_VERIFY_LISTEN=0.0.0.0:8080 \
    PHONE_VERIFY_DATA_DIR=/var/lib/phone-verify/data
EXPOSE 8080
VOLUME ["/var/lib/phone-verify/data"]
HEALTHCHECK --interval=10s --timeout=2s CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q ' 200 ' <&3"]
ENTRYPOINT ["/usr/local/bin/phone-verify"]
CMD ["serve"]
