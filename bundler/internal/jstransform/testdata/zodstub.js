// A stand-in for zod's builders, enough for testdata/puredata.js to run
// in Node (TestPureInitializersBehave) and to bundle (bundler's tree
// shaking test): each builder returns a new schema, as zod's do; meta
// records the schema under its id, as zod's global registry does.
const registry = (globalThis.zodRegistry ??= new Map());
class Schema {
	constructor(def) { this.def = def; }
	with(change) { return new Schema({ ...this.def, ...change }); }
	describe(description) { return this.with({ description }); }
	optional() { return this.with({ optional: true }); }
	passthrough() { return this.with({ passthrough: true }); }
	extend(shape) { return this.with({ shape: { ...this.def.shape, ...shape } }); }
	meta(meta) { registry.set(meta.id, this); return this; }
	parse(value) { return { value, description: this.def.description }; }
}
export const z = {
	object: (shape) => new Schema({ type: "object", shape }),
	string: () => new Schema({ type: "string" }),
	number: () => new Schema({ type: "number" }),
	literal: (value) => new Schema({ type: "literal", value }),
};
