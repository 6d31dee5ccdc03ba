import { twice } from "./math";

self.onmessage = (e: MessageEvent<number>) => self.postMessage(twice(e.data));
