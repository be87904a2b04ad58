# One image, two commands: the api (default) and the worker (`node dist/worker.js`, as docker-compose.yml runs
# it). Both run the JavaScript `npm run build` compiles, with plain node: no TypeScript loader at run time.
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us ca-certificates \
    libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Installed first, from the manifests only, so a code change does not reinstall everything.
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY packages packages
# This npm runs every install script (it knows no allowScripts); keep swagger-ui-dist's telemetry quiet.
ENV SCARF_ANALYTICS=false
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 WORKER_METRICS_PORT=9464
USER node
# 3000: the api (and its /metrics); 9464: a worker's /metrics and /healthz.
EXPOSE 3000 9464
CMD ["node", "dist/api.js"]
