const API = "https://api.example.com/v1";
export async function load(city: string) {
  const r = await fetch(`${API}/forecast?city=${city}`);
  return r.json();
}
load("x");
new WebSocket("wss://live.example.com/socket");
document.body.append("ready");
