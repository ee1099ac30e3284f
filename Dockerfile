# Build the single binary, then run it as a non-root user with /data as the only writable place.
FROM oven/bun:1.3 AS build
WORKDIR /src
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production
COPY tsconfig.json ./
COPY src ./src
# The verifier package: the service verifies proofs and cosignatures with it (tsconfig paths).
COPY packages/verify/src ./packages/verify/src
# Text files embedded in the binary: the witness spec page and the agent documents.
COPY docs/witness-spec.md ./docs/witness-spec.md
COPY public ./public
RUN bun build src/main.ts --compile --outfile /out/openbell

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /nonexistent openbell \
 && mkdir -p /data /app \
 && chown openbell:openbell /data && chmod 0700 /data
COPY --from=build /out/openbell /app/openbell
COPY schedules /app/schedules
ENV TZ=UTC DATA_DIR=/data PORT=8080 HOST=0.0.0.0
USER openbell
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s CMD ["/app/openbell", "healthcheck"]
ENTRYPOINT ["/app/openbell"]
