// @refresh reload
// Client entry: hydrates the server-rendered document's #app.
import { mount, StartClient } from '@solidjs/start/client';

mount(() => <StartClient />, document.getElementById('app'));
