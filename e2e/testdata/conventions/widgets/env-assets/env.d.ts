interface ImportMetaEnv {
  readonly MODE: string;
  readonly DEV: boolean;
  readonly PROD: boolean;
  readonly SSR: boolean;
  readonly BASE_URL: string;
  readonly VITE_MESSAGE: string;
  readonly VITE_GREETING: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
declare module "*?raw" {
  const text: string;
  export default text;
}
declare module "*?url" {
  const url: string;
  export default url;
}
