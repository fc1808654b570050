// The base (variables, resets) first: every component's own stylesheet follows and may build on it.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App.js';
import { connect, syncPlaceWithLocation } from './store.js';
import { chooseTransport } from './transport.js';

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
