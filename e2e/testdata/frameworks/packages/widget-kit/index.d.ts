import type { ReactNode } from "react";
export declare function KitProvider(props: { appName?: string; children?: ReactNode }): ReactNode;
export declare function useKitProps<T = unknown>(): T | null;
export declare function useKitTheme(): "light" | "dark";
export declare function useKitAppName(): string;
