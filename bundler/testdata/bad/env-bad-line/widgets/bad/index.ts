document.body.append(import.meta.env.VITE_X);
