"use strict";
// Discord's side of an Activity, spoken by hand: the Embedded App SDK's
// handshake and its two commands the table needs (no npm package, so nothing
// to build). Inside Discord the page is opened with ?frame_id=...; it posts a
// HANDSHAKE (opcode 0) to its parent, waits for the READY dispatch (opcode 1,
// FRAME), asks AUTHORIZE for a code, has the server exchange it
// (POST /api/token), and hands the access token to AUTHENTICATE.
window.ToepDiscord = (() => {
  const params = new URLSearchParams(location.search);
  const frameId = params.get("frame_id");
  const HANDSHAKE = 0;
  const FRAME = 1;
  const target = window.parent.opener || window.parent;
  const origin = document.referrer ? new URL(document.referrer).origin : "*";
  const pending = new Map();
  let counter = 0;
  let whenReady = null;
  const ready = new Promise((resolve) => { whenReady = resolve; });

  function onMessage(event) {
    if (event.source !== target || !Array.isArray(event.data)) return;
    const [opcode, payload] = event.data;
    if (opcode !== FRAME || payload === null || typeof payload !== "object") return;
    if (payload.cmd === "DISPATCH" && payload.evt === "READY") {
      whenReady(payload.data);
      return;
    }
    const waiting = pending.get(payload.nonce);
    if (waiting === undefined) return;
    pending.delete(payload.nonce);
    if (payload.evt === "ERROR") {
      waiting.reject(new Error((payload.data && payload.data.message) || "refused"));
    } else {
      waiting.resolve(payload.data || {});
    }
  }

  function command(cmd, args) {
    counter += 1;
    const nonce = `${counter}-${Math.random().toString(36).slice(2)}`;
    return new Promise((resolve, reject) => {
      pending.set(nonce, { resolve, reject });
      target.postMessage([FRAME, { cmd, args, nonce }], origin);
    });
  }

  // ready, authorize, the server's token exchange, authenticate: a session.
  async function login(clientId, api) {
    window.addEventListener("message", onMessage);
    target.postMessage([HANDSHAKE, { v: 1, encoding: "json", client_id: clientId,
      frame_id: frameId }], origin);
    await ready;
    const { code } = await command("AUTHORIZE", { client_id: clientId, response_type: "code",
      state: "", prompt: "none", scope: ["identify"] });
    const res = await fetch(`${api}/api/token`, { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }) });
    if (!res.ok) throw new Error("login");
    const body = await res.json();
    await command("AUTHENTICATE", { access_token: body.access_token });
    return { session: body.session, channel: params.get("channel_id") };
  }

  return { inDiscord: frameId !== null, login };
})();
