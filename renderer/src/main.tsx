import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App.js';
import { connect, syncPlaceWithLocation } from './store.js';
import { chooseTransport } from './transport.js';
import './styles.css';

// The token leaves the address bar before anything else reads the fragment.
const choice = chooseTransport();
syncPlaceWithLocation();
connect(choice);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
