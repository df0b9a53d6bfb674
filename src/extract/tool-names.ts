/**
 * Names of tools, platforms and stores that people type in lower case ("use mongo", "host it on
 * netlify", "lets just use drizzle"): a plan naming one settles something even with no capital
 * letter, a digit or code in it (markers.ts PLAN). Before, "we will use mongo for the events store"
 * named nothing the rules could see. Whole words, case-insensitive; a regex source to embed.
 */
const NAMES = [
  'pnpm', 'npm', 'yarn', 'bun', 'deno', 'postgres(?:ql)?', 'mysql', 'mariadb', 'sqlite', 'mongo(?:db)?', 'redis', 'memcached', 'kafka', 'nats', 'rabbitmq', 'sqs',
  'docker', 'kubernetes', 'k8s', 'helm', 'terraform', 'pulumi', 'netlify', 'vercel', 'heroku', 'fly(?:\\.io)?', 'railway', 'cloudflare', 'aws', 'gcp', 'azure', 
  's3', 'r2', 'supabase', 'firebase', 'prisma', 'drizzle', 'typeorm', 'sequelize', 'knex', 'fastify', 'koa', 'hono', 'nestjs', 'django', 'flask', 'fastapi', 'rails',
  'react', 'vue', 'svelte(?:kit)?', 'angular', 'next\\.?js', 'nuxt', 'astro', 'vite', 'webpack', 'esbuild', 'rollup', 'turborepo', 'nx', 'lerna', 'tailwind(?:css)?',
  'jest', 'vitest', 'mocha', 'pytest', 'playwright', 'cypress', 'storybook', 'eslint', 'prettier', 'biome', 'dprint', 'zod', 'yup', 'pino', 'winston', 'sentry', 'datadog', 'grafana',
  'stripe', 'clerk', 'auth0', 'okta', 'retool', 'graphql', 'grpc', 'trpc', 'redux', 'zustand', 'jotai', 'mobx', 'pinia', 'bullmq', 'celery', 'airflow',
  'elasticsearch', 'opensearch', 'meilisearch', 'typesense', 'algolia', 'clickhouse', 'snowflake', 'bigquery', 'nginx', 'envoy', 'traefik', 'caddy', 'github\\s+actions', 'gitlab',
];

export const TOOL_NAMES = String.raw`\b(?:${NAMES.join('|')})\b`;
