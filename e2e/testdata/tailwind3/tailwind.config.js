/** @type {import('tailwindcss').Config} */
module.exports = {
  content: ["./widgets/**/*.{ts,tsx,html}"],
  theme: {
    extend: {
      colors: { ocean: "#1d4e89" },
    },
  },
  plugins: [],
};
