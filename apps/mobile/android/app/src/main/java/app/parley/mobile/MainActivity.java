package app.parley.mobile;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
