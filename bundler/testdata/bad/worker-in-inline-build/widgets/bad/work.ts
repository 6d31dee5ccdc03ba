self.onmessage = () => {};
