// The type of .vue files for tsc (widgetd check --types; tsconfig.json
// includes the *.d.ts files of this folder). tsc does not read .vue files, so
// it sees every component as a Vue component with any props; widgetd build
// compiles the components themselves and reports their errors. vue-tsc, if
// you install it, type-checks what is inside them.
declare module "*.vue" {
  import type { DefineComponent } from "vue";
  const component: DefineComponent;
  export default component;
}
