# Book-My-ETaxi staff console: one image for every instance. Build: docker build -t bmet-console .
# Run: docker run -p 3000:3000 -v bmet-data:/data bmet-console (embedded database, no demo data:
# create the first admin with `docker run --rm -it -v bmet-data:/data bmet-console npm run
# create-admin -- --email you@example.in`, the server stopped), or with DATABASE_URL, JWT_SECRET,
# REDIS_URL and S3_* for several instances (see compose.yaml).

FROM node:22-bookworm-slim AS build
WORKDIR /app
# npm ci compiles the texts (prepare), so the sources come first.
COPY . .
RUN npm ci --no-audit --no-fund \
  && npm run build --workspace @bmet/web \
  && npm run build --workspace @bmet/api \
  && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# MALLOC_ARENA_MAX: the C library's memory in two arenas instead of one per thread that allocates
# (compression runs on Node's worker threads): a CSV export of a million trips then peaks 45-50 MB
# above idle instead of 58-70 (docs/performance.md).
ENV MALLOC_ARENA_MAX=2 \
    NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    LOG_PRETTY=false
WORKDIR /app
# Fonts for the watermark drawn on Aadhaar and PAN card images (names in Latin or Devanagari):
# the slim image has none, and the text would come out as empty boxes.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core fonts-lohit-deva \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The compiled server as process 1: it receives the stop signal itself and closes the database.
CMD ["node", "apps/api/dist/server.js"]
