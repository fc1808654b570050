// The base (variables, resets) first: every component's own stylesheet follows and may build on it.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App.js';
import { connect, syncPlaceWithLocation } from './store.js';
import { trackPanelDepth } from './navigation.js';
import { chooseTransport, createHttpTransport, onTokenLink } from './transport.js';

// The token leaves the address bar before anything else reads the fragment.
const choice = chooseTransport();
let disconnect = connect(choice);
// A link pasted into this tab later (the address `steward token rotate` printed) changes only the
// fragment, so no page load takes its token: it is taken here, before the place is read from the
// address, and the panel connects with it, so a tab refused after a rotation lets the person in.
if (choice.kind === 'no-token' || choice.transport.kind === 'http') {
  onTokenLink((token) => {
    disconnect();
    disconnect = connect({ kind: 'ready', transport: createHttpTransport(token) });
  });
}
syncPlaceWithLocation();
trackPanelDepth();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
