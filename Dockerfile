# syntax=docker/dockerfile:1
#
# docs-appliance image: build stage (toolchain, dev dependencies, TypeScript) and a runtime stage
# with only what `node dist/app/cli.js serve` reads. Nothing is fetched at run time.
#
# Base images are build arguments. The defaults are the official Node 22 LTS images, pinned by
# version; pin them by digest for production builds, e.g.
#   --build-arg BASE=node:22.23.5-bookworm-slim@sha256:<digest>
# Node 22, not 24: better-sqlite3 12 aborts on Node 24 when the garbage collector frees a
# statement (the appliance refuses that pair at start: docs/operations.md, "Supported runtimes").
# The version is the one of scripts/container/lib.sh (NODE_VERSION; a test keeps them equal).
# Both stages must carry the same Node major (better-sqlite3 is a native module): the runtime
# stage loads it once at build time, so a mismatch fails the build instead of the first start.
# With no registry at all, scripts/container/build-bases.sh makes both bases locally
# (docs/operations.md, "Building without a registry").
#
# Build secrets (optional, never stored in a layer):
#   --secret id=cabundle,src=<PEM>   CA of a TLS-inspecting proxy or a private registry
#   --secret id=npmrc,src=<.npmrc>   npm settings, e.g. registry=https://npm.internal/
ARG BUILD_BASE=node:22.23.5-bookworm
ARG BASE=node:22.23.5-bookworm-slim

FROM ${BUILD_BASE} AS build

# better-sqlite3 compiles with python3, make and g++ when no prebuilt binary is reachable; tini is
# the runtime's PID 1 (its static build is copied below). The full node image has the toolchain
# already, a local base may have all four: install only what is missing.
RUN set -eu; pkgs=""; \
    command -v python3 >/dev/null 2>&1 || pkgs="$pkgs python3"; \
    command -v make >/dev/null 2>&1 || pkgs="$pkgs make"; \
    command -v g++ >/dev/null 2>&1 || pkgs="$pkgs g++"; \
    command -v tini-static >/dev/null 2>&1 || pkgs="$pkgs tini"; \
    if [ -n "$pkgs" ]; then \
      apt-get update; \
      apt-get install -y --no-install-recommends $pkgs; \
      rm -rf /var/lib/apt/lists/*; \
    fi

# node-gyp takes Node's headers from the base image (official images and the local one keep them
# in /usr/local/include/node) instead of downloading them. The npm_package_config_node_gyp_ form
# is the one npm 11 passes to node-gyp without an "unknown config" warning.
ENV npm_package_config_node_gyp_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

WORKDIR /src

# Dependencies first, so that a source change reuses this layer (better-sqlite3 takes a minute to
# compile). --ignore-scripts skips `prepare` (the build needs the sources); the native module is
# then built on its own.
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=cabundle --mount=type=secret,id=npmrc \
    set -eu; \
    if [ -f /run/secrets/cabundle ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/cabundle; fi; \
    if [ -f /run/secrets/npmrc ]; then export npm_config_userconfig=/run/secrets/npmrc; fi; \
    npm ci --ignore-scripts; \
    npm rebuild --foreground-scripts better-sqlite3

COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/build-editor.mjs ./scripts/
COPY bin ./bin
COPY config ./config
COPY data ./data
COPY app ./app
COPY renderer ./renderer
COPY example-docs ./example-docs
RUN npm run build && npm prune --omit=dev --ignore-scripts

# The runtime tree: compiled code, production dependencies, and every non-TypeScript file of the
# source folders (renderer templates and client assets are read from there at run time).
RUN set -eu; \
    mkdir -p /out/app; \
    cp -a package.json bin dist node_modules example-docs /out/app/; \
    find app config data renderer -type f ! -name '*.ts' -exec cp --parents -t /out/app {} +; \
    bs=/out/app/node_modules/better-sqlite3; \
    find "$bs/build" -type f ! -name better_sqlite3.node -delete; \
    rm -rf "$bs/deps" "$bs/src"; \
    # The icon packages are read only as one SVG file per icon (renderer/icons): their fonts,
    # bundles, sprites and JSON indexes (about 85 MB) are never used.
    rm -rf /out/app/node_modules/lucide-static/font /out/app/node_modules/lucide-static/dist \
      /out/app/node_modules/lucide-static/sprite.svg /out/app/node_modules/lucide-static/icon-nodes.json \
      /out/app/node_modules/@tabler/icons/categories /out/app/node_modules/@tabler/icons/icons.json \
      /out/app/node_modules/@tabler/icons/tabler-nodes-filled.json /out/app/node_modules/@tabler/icons/tabler-nodes-outline.json; \
    cp "$(command -v tini-static)" /out/tini


FROM ${BASE} AS runtime

ARG APP_UID=10001
ARG APP_GID=10001

# The agent runner drives the git CLI (https and ssh remotes, the system CA store for https).
# Official slim images lack git; a local base may carry it already: install only what is missing.
RUN set -eu; pkgs=""; \
    command -v git >/dev/null 2>&1 || pkgs="$pkgs git"; \
    command -v ssh >/dev/null 2>&1 || pkgs="$pkgs openssh-client"; \
    [ -f /etc/ssl/certs/ca-certificates.crt ] || pkgs="$pkgs ca-certificates"; \
    if [ -n "$pkgs" ]; then \
      apt-get update; \
      apt-get install -y --no-install-recommends $pkgs; \
      rm -rf /var/lib/apt/lists/*; \
    fi

# A fixed uid/gid, so that a volume's ownership is the same on every host and every upgrade.
RUN groupadd --gid "${APP_GID}" appliance \
 && useradd --uid "${APP_UID}" --gid "${APP_GID}" --home-dir /nonexistent --no-create-home \
      --shell /usr/sbin/nologin appliance \
 && mkdir -p /data \
 && chown "${APP_UID}:${APP_GID}" /data \
 && chmod 0750 /data

COPY --from=build /out/tini /usr/local/bin/tini
COPY --from=build /out/app /app
RUN ln -s /app/bin/docs-appliance.mjs /usr/local/bin/docs-appliance

WORKDIR /app

# Fails the build when the runtime's Node cannot load the native module compiled in the build stage.
RUN ["node", "-e", "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"]

ENV NODE_ENV=production \
    DOCS_APPLIANCE_STATE_DIR=/data

VOLUME ["/data"]
EXPOSE 3000 8080
USER ${APP_UID}:${APP_GID}

# Node itself (the image has no curl). The port follows DOCS_APPLIANCE_ADMIN_PORT when it is set.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.DOCS_APPLIANCE_ADMIN_PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# tini is PID 1: it forwards SIGTERM/SIGINT/SIGHUP to Node and reaps zombies (git, render workers).
ENTRYPOINT ["/usr/local/bin/tini", "--", "node", "/app/dist/app/cli.js"]
CMD ["serve"]

LABEL org.opencontainers.image.title="docs-appliance" \
      org.opencontainers.image.description="Air-gapped documentation appliance: admin API, static-site renderer, bundle loader and agent runner" \
      org.opencontainers.image.licenses="MIT"
