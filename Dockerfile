# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the dev dependencies.
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
# The operator console is built from its sources and the committed API description.
COPY console ./console
COPY docs/openapi.json ./docs/openapi.json
RUN npm run build

# Runtime stage: production dependencies and the compiled code only, as a non-root user.
FROM node:20.20.2-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/var/lib/billing
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/billing && chown node:node /var/lib/billing
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "require('http').get('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live',r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"
# SIGTERM stops taking work, finishes what is in flight and closes the database.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=32", "dist/main.js"]
