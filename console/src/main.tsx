import '@mantine/core/styles.css';
import './console.css';
import { createTheme, type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './i18n/i18n';
import { App } from './app';

/** The daemon's Content-Security-Policy admits <style> elements only with this answer's nonce. */
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

const queryClient = new QueryClient({
  defaultOptions: {
    // Lists and objects are read again when the operator comes back to them; a refused read is not retried blindly.
    queries: { staleTime: 5_000, retry: false, refetchOnWindowFocus: true },
    mutations: { retry: false },
  },
});

// Shade 8 and autoContrast: text on filled buttons and badges meets WCAG AA contrast.
const theme = createTheme({ primaryColor: 'indigo', primaryShade: 8, autoContrast: true, defaultRadius: 'sm' });

/** Darker secondary text and error red than the library's defaults, so both meet WCAG AA contrast on white. */
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={contrast} getStyleNonce={() => nonce} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <BrowserRouter basename="/console">
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
