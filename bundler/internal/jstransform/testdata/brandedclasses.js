const internals = {};
var Kept = class extends Error {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "BRAND_KEPT" });
	}
	static [Symbol.hasInstance](value) { return typeof value === "object" && value !== null && "brand" in value; }
	constructor(message) { super(message); this.name = new.target.name; this.brand = new.target.mcpBrand; }
};
var Unused = class Unused extends Kept {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "BRAND_UNUSED" });
	}
	static fromText(text) { return new Unused(`{${text}}`.replace(/[{}]/g, "")); }
};
var Friend = class {
	_secret = "FRIEND_UNUSED";
	static {
		internals.peek = (friend) => friend._secret;
		internals.poke = (friend, value) => { friend._secret = value; };
	}
};
var Effect = class {
	static {
		globalThis.effectRan = "EFFECT_KEPT";
	}
};
var FieldCall = class {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "FIELD_BRAND" });
	}
	static registered = globalThis.register?.("FIELD_KEPT");
};
var Computed = class {
	static {
		Object.defineProperty(this, "mcpBrand", { value: "COMPUTED_BRAND" });
	}
	[globalThis.key ?? "COMPUTED_KEPT"]() {}
};
export { Kept, Unused, Friend, Effect, FieldCall, Computed, internals };
