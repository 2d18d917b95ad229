import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

// The server bundle's entry is our Express app, so the web server, background workers and the
// React Router build share one module graph (one database pool, one event hub).
export default defineConfig({
  build: { target: 'es2022' },
  environments: {
    ssr: { build: { rollupOptions: { input: './server/index.ts' } } },
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
})
