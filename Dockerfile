# The Scoby controller image:
#   docker build -t scoby-controller:0.1.0 --build-arg REVISION=$(git rev-parse HEAD) .
#
# It runs compiled JavaScript only. The build stage compiles the packages, bundles the `scoby` program
# (apps/controller/scripts/bundle.mjs: dist/scoby.mjs, the ENTRYPOINT) and packs the publishable ones
# (scripts/pack-packages.mjs: the tarballs `npm publish` would upload), then installs the tarballs
# for production in an empty project, as `npm install @scoby/controller` would. The runtime stage is
# that install on the Node.js base image: no TypeScript, tsx or esbuild, nothing compiles at start-up,
# nothing is written at run time (the root filesystem can be read-only). The pack-and-install test
# (apps/controller/test/packaging) runs this ENTRYPOINT against the same kind of install.
# docs/operations/image.md: building, running, and adding form-factor plugins.
# No `# syntax=` directive: it makes BuildKit pull a frontend image; BuildKit's built-in frontend and
# the legacy builder both read this file, so it builds where no registry is reachable (e2e/images).

# Node.js 24 LTS, the release CI runs (.ci/run NODE_VERSION). For a reproducible build, pin the digest
# as well: --build-arg NODE_IMAGE=node:24.21.0-slim@sha256:… (docker buildx imagetools inspect).
ARG NODE_IMAGE=node:24.21.0-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY . .
# Install scripts stay off: the build needs none (CONTRIBUTING.md, "npm install scripts").
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && node scripts/pack-packages.mjs /packages \
 && mkdir /app \
 && cd /app \
 && echo '{ "name": "scoby-image", "private": true, "type": "module" }' > package.json \
 && npm install --omit=dev --ignore-scripts --no-audit --no-fund /packages/*.tgz

FROM ${NODE_IMAGE}
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="scoby-controller" \
      org.opencontainers.image.description="Scoby: declarative controllers for registered CRDs, drop-in compatible with scoby.triggermesh.io/v1alpha1" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="https://github.com/scoby-ts/scoby" \
      org.opencontainers.image.documentation="https://github.com/scoby-ts/scoby/tree/main/docs" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and not writable by the process.
COPY --from=build /app/ ./
# The `node` user of the base image, numeric so that runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
ENTRYPOINT ["node", "/app/node_modules/@scoby/controller/dist/scoby.mjs"]
CMD ["run"]
