# syntax=docker/dockerfile:1
#
# The Scoby controller image:   docker build -t scoby-controller:0.1.0 .
#
# There is no build step: the controller runs its TypeScript sources with tsx, which is a runtime
# dependency of @scoby/controller. `npm ci --omit=dev` therefore installs everything the controller
# needs (tsx and esbuild included) and leaves out the test and build tooling (vitest, nx, typescript,
# testcontainers). The price is a compile of the sources at start-up, cached by tsx under /tmp
# (deploy/ mounts an emptyDir there because the root filesystem is read-only).

# Only the package manifests, so the dependency layer is rebuilt when they change, not on every edit.
FROM node:24-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && cp package.json package-lock.json /manifests/ \
 && find packages apps e2e -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests/ \;

FROM node:24-slim AS dependencies
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=dependencies /app/ ./
COPY . .
# The `node` user of the base image, numeric so that runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
ENTRYPOINT ["node", "apps/controller/bin/scoby.js"]
CMD ["run"]
